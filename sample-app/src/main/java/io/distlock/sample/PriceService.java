package io.distlock.sample;

import io.distlock.spring.DistributedLock;
import io.distlock.spring.LockType;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import java.math.BigDecimal;
import java.util.List;

/**
 * A price list, read far more often than it changes.
 * <p>
 * The pattern: the two halves of a read-write lock under one name ({@code price-list}). Readers
 * share the read lock and never wait for each other; a price change takes the write lock, so no
 * reader sees a list half changed.
 */
@Service
public class PriceService {

    private final JdbcTemplate jdbc;

    PriceService(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * @param list the price list
     * @param sku  the article
     * @return its price
     * @throws IllegalArgumentException if the list has no such article
     */
    @DistributedLock(name = "price-list", key = "#list", type = LockType.READ)
    public BigDecimal price(String list, String sku) {
        List<BigDecimal> price = jdbc.queryForList("select price from prices where list = ? and sku = ?",
                BigDecimal.class, list, sku);
        if (price.isEmpty()) {
            throw new IllegalArgumentException("Price list '" + list + "' has no article '" + sku + "'");
        }
        return price.get(0);
    }

    /**
     * @param list  the price list
     * @param sku   the article
     * @param price its new price
     */
    @DistributedLock(name = "price-list", key = "#list", type = LockType.WRITE)
    @Transactional
    public void change(String list, String sku, BigDecimal price) {
        if (jdbc.update("update prices set price = ? where list = ? and sku = ?", price, list, sku) == 0) {
            jdbc.update("insert into prices (list, sku, price) values (?, ?, ?)", list, sku, price);
        }
    }
}
