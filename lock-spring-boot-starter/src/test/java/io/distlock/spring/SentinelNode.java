package io.distlock.spring;

/**
 * One Sentinel of {@link BootGeneration#sentinelRedis}.
 *
 * @param host its host
 * @param port its port
 */
public record SentinelNode(String host, int port) {
}
