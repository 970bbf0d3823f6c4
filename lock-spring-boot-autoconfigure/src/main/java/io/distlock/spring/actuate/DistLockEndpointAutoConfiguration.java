package io.distlock.spring.actuate;

import io.distlock.core.LockClient;
import io.distlock.spring.autoconfigure.DistLockAutoConfiguration;
import io.distlock.spring.autoconfigure.DistLockConnectionDetails;
import io.distlock.spring.autoconfigure.DistLockProperties;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Adds the {@link DistLockEndpoint} ({@code distlock}) when Spring Boot's actuator is on the
 * classpath and the endpoint is available (exposed, and not switched off).
 */
@AutoConfiguration(after = DistLockAutoConfiguration.class)
@ConditionalOnClass(name = "org.springframework.boot.actuate.endpoint.annotation.Endpoint")
@ConditionalOnBean(LockClient.class)
@ConditionalOnAvailableEndpoint(DistLockEndpoint.class)
public final class DistLockEndpointAutoConfiguration {

    /**
     * @param client      the lock client
     * @param properties  its settings
     * @param details     where the starter's lock client connects, if the starter made it
     * @param beanFactory tells whether the starter made the lock client
     * @return the endpoint
     */
    @Bean
    @ConditionalOnMissingBean
    DistLockEndpoint distLockEndpoint(LockClient client, DistLockProperties properties,
                                      ObjectProvider<DistLockConnectionDetails> details,
                                      ConfigurableListableBeanFactory beanFactory) {
        return new DistLockEndpoint(client, properties, () -> connectionSource(beanFactory, details));
    }

    /** @return where the lock client's connection comes from; never fails the endpoint's read */
    private static String connectionSource(ConfigurableListableBeanFactory beanFactory,
                                           ObjectProvider<DistLockConnectionDetails> details) {
        if (!madeByTheStarter(beanFactory)) {
            return "a LockClient bean of the application";
        }
        try {
            return details.getObject().describeSource();
        } catch (RuntimeException e) {
            return "not known (" + e.getMessage() + ")";
        }
    }

    /** @return whether the application's lock client is the starter's ({@link DistLockAutoConfiguration}'s) */
    private static boolean madeByTheStarter(ConfigurableListableBeanFactory beanFactory) {
        for (String name : beanFactory.getBeanNamesForType(LockClient.class, false, false)) {
            if (beanFactory.containsBeanDefinition(name) && DistLockAutoConfiguration.class.getName()
                    .equals(beanFactory.getBeanDefinition(name).getFactoryBeanName())) {
                return true;
            }
        }
        return false;
    }
}
