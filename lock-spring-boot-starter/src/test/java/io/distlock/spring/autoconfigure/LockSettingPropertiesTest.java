package io.distlock.spring.autoconfigure;

import io.distlock.core.InvalidLockSettingException;
import io.distlock.core.LockClient;
import io.distlock.core.LockSetting;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The builder's checks, reported under the {@code distlock.*} property a value came from. */
class LockSettingPropertiesTest {

    @Test
    void aRejectedValueIsReportedUnderItsPropertyWithTheBuildersReasonAndFix() {
        assertThatThrownBy(() -> LockSettingProperties.applying(
                () -> LockClient.builder().watchdogTimeout(Duration.ofMillis(10))))
                .isInstanceOfSatisfying(InvalidLockPropertyException.class, e -> {
                    assertThat(e.getProperty()).isEqualTo("distlock.watchdog.timeout");
                    assertThat(e.getAction()).isEqualTo("Set at least 100ms; the default is 30s.");
                })
                .hasMessage("Invalid distlock.watchdog.timeout: '10ms' is shorter than 100ms. "
                        + "Set at least 100ms; the default is 30s.");
    }

    @Test
    void aSettingNoPropertyHoldsIsReportedAsTheBuilderSaidIt() {
        assertThatThrownBy(() -> LockSettingProperties.applying(
                () -> LockClient.builder().fairSlotTimeout(Duration.ZERO)))
                .isInstanceOf(InvalidLockSettingException.class).hasMessageContaining("fairSlotTimeout");
    }

    /** Each named property binds to {@link DistLockProperties}: a renamed property breaks this test. */
    @Test
    void everyNamedPropertyExists() {
        Arrays.stream(LockSetting.values()).map(LockSettingProperties::propertyOf).flatMap(Optional::stream)
                .forEach(property -> {
                    Binder binder = new Binder(new MapConfigurationPropertySource(Map.of(property, "7")));
                    DistLockProperties bound = binder.bind("distlock", Bindable.of(DistLockProperties.class))
                            .orElseGet(DistLockProperties::new);
                    assertThat(bound).as(property).usingRecursiveComparison().isNotEqualTo(new DistLockProperties());
                });
    }
}
