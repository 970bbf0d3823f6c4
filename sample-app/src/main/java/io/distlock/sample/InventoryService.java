package io.distlock.sample;

import io.distlock.spring.DistributedLock;
import io.distlock.spring.OnFailure;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Reserves stock for several SKUs at once.
 * <p>
 * The pattern: a collection as the key. One lock per SKU is taken, all or nothing, in sorted
 * order, so two baskets listing the same fruit in a different order cannot deadlock. A busy SKU
 * skips the reservation ({@code OnFailure.SKIP}) instead of failing the request: the caller is
 * told to try again.
 */
@Service
public class InventoryService {

    private final JdbcTemplate jdbc;

    InventoryService(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * @param skus what to reserve, one unit each
     * @return stock left per SKU, or empty if another reservation held one of the SKUs too long
     * @throws IllegalArgumentException if a SKU is unknown or sold out (nothing is reserved then)
     */
    @DistributedLock(name = "stock", key = "#skus", waitTime = "1s", onFailure = OnFailure.SKIP)
    @Transactional
    public Optional<Map<String, Integer>> reserve(List<String> skus) {
        Map<String, Integer> left = new TreeMap<>();
        for (String sku : skus) {
            if (jdbc.update("update stock set available = available - 1 where sku = ? and available > 0", sku) == 0) {
                throw new IllegalArgumentException("SKU '" + sku + "' is unknown or sold out");
            }
            left.put(sku, jdbc.queryForObject("select available from stock where sku = ?", Integer.class, sku));
        }
        return Optional.of(left);
    }
}
