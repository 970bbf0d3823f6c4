package io.distlock.spring.autoconfigure;

import io.lettuce.core.SslOptions;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.util.ClassUtils;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Spring Boot's own description of the application's Redis: its connection-details bean, which
 * Boot derives from {@code spring.data.redis.*} and which {@code @ServiceConnection}, Docker
 * Compose support and cloud bindings replace. The type is {@code DataRedisConnectionDetails} on
 * Spring Boot 4 and {@code RedisConnectionDetails} on 3.5; both have the same methods, so they are
 * read by name, through the interface Boot declares them on: one path for both generations,
 * compiled against neither.
 *
 * @param details  the bean
 * @param type     the connection-details interface it implements
 */
record BootRedisConnectionDetails(Object details, Class<?> type) {

    /** The connection-details interface of Spring Boot 4, then that of 3.5. */
    static final List<String> TYPE_NAMES = List.of(
            "org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails",
            "org.springframework.boot.autoconfigure.data.redis.RedisConnectionDetails");

    private static final String PREFIX = "spring.data.redis";

    /**
     * @param beans the application's beans
     * @return Boot's connection details, if Spring Data Redis is on the classpath and the
     *         application has exactly one such bean
     */
    static Optional<BootRedisConnectionDetails> find(BeanFactory beans) {
        ClassLoader loader = BootRedisConnectionDetails.class.getClassLoader();
        for (String name : TYPE_NAMES) {
            if (ClassUtils.isPresent(name, loader)) {
                Class<?> type = ClassUtils.resolveClassName(name, loader);
                ObjectProvider<?> provider = beans.getBeanProvider(type);
                return Optional.ofNullable(provider.getIfUnique()).map(details -> new BootRedisConnectionDetails(details, type));
            }
        }
        return Optional.empty();
    }

    /**
     * @param redis {@code distlock.redis.*}: its credentials, database and SSL bundle, when set,
     *              win over Boot's
     * @return where to connect
     * @throws InvalidLockPropertyException if the details describe a setup distlock cannot lock on
     */
    RedisConnectionSettings settings(DistLockProperties.Redis redis) {
        if (call(details, "getMasterReplica") != null) {
            throw new InvalidLockPropertyException(PREFIX + ".masterreplica.nodes", "Spring Boot's Redis connection "
                    + "describes a static master/replica setup, whose master distlock cannot tell",
                    "Point distlock.redis.url at the master, or use Sentinel.");
        }
        Object standalone = call(details, "getStandalone");
        Object sentinel = call(details, "getSentinel");
        Object cluster = call(details, "getCluster");
        Integer database = sentinel != null ? (Integer) call(sentinel, "getDatabase")
                : standalone != null ? (Integer) call(standalone, "getDatabase") : null;
        return new RedisConnectionSettings(PREFIX + " (" + type.getSimpleName() + ")", null,
                standalone == null ? "localhost" : (String) call(standalone, "getHost"),
                standalone == null ? 6379 : (Integer) call(standalone, "getPort"),
                first(redis.getUsername(), (String) call(details, "getUsername")),
                first(redis.getPassword(), (String) call(details, "getPassword")),
                redis.isSsl() || sslBundle() != null,
                redis.getSslBundle(), redis.getSslBundle() == null ? null : "distlock.redis.ssl-bundle",
                first(redis.getDatabase(), database),
                sentinel == null ? null : (String) call(sentinel, "getMaster"),
                sentinel == null ? List.of() : nodes(sentinel),
                sentinel == null ? null : (String) call(sentinel, "getUsername"),
                sentinel == null ? null : (String) call(sentinel, "getPassword"),
                cluster == null ? List.of() : nodes(cluster));
    }

    /** @return the TLS options of Boot's SSL bundle for Redis, if it has one */
    Optional<SslOptions> sslOptions() {
        return Optional.ofNullable(sslBundle()).map(LettuceSslBundle::options);
    }

    private SslBundle sslBundle() {
        return (SslBundle) call(details, "getSslBundle");
    }

    /** @return the nodes of a Sentinel or Cluster description, as {@code host:port} */
    private static List<String> nodes(Object group) {
        List<String> nodes = new ArrayList<>();
        for (Object node : (List<?>) call(group, "getNodes")) {
            nodes.add(call(node, "host") + ":" + call(node, "port"));
        }
        return nodes;
    }

    /**
     * Calls a getter through the public interface (or public class) that declares it: the bean and
     * its parts are often of classes that are not public.
     *
     * @return what the getter returned, or {@code null} if {@code target} is {@code null} or this
     *         generation of Spring Boot has no such getter (e.g. {@code getSslBundle} before 3.5)
     */
    private static Object call(Object target, String method) {
        Class<?> declaring = target == null ? null : publicTypeDeclaring(target.getClass(), method);
        if (declaring == null) {
            return null;
        }
        try {
            return declaring.getMethod(method).invoke(target);
        } catch (ReflectiveOperationException e) {
            Throwable cause = e instanceof InvocationTargetException failed ? failed.getCause() : e;
            throw new IllegalStateException("Could not read " + declaring.getName() + "." + method
                    + "() of Spring Boot's Redis connection details: " + cause, cause);
        }
    }

    private static Class<?> publicTypeDeclaring(Class<?> type, String method) {
        for (Class<?> candidate : ClassUtils.getAllInterfacesForClassAsSet(type)) {
            if (Modifier.isPublic(candidate.getModifiers()) && ClassUtils.hasMethod(candidate, method)) {
                return candidate;
            }
        }
        return Modifier.isPublic(type.getModifiers()) && ClassUtils.hasMethod(type, method) ? type : null;
    }

    private static <T> T first(T preferred, T fallback) {
        return preferred != null ? preferred : fallback;
    }
}
