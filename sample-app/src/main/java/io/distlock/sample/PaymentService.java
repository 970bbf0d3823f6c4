package io.distlock.sample;

import io.distlock.spring.DistributedLock;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import java.math.BigDecimal;

/**
 * Charges an order at most once. Its lock has a name of its own ({@code payments}) and a wait
 * time from configuration; called inside {@link OrderService#process}'s transaction, it keeps its
 * lock until that transaction has committed.
 */
@Service
public class PaymentService {

    private final JdbcTemplate jdbc;

    PaymentService(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * @param orderId the order
     * @param amount  what to charge
     * @return {@code true} if charged now, {@code false} if it was charged before
     */
    @DistributedLock(name = "payments", key = "#orderId", waitTime = "${sample.payments.lock-wait:2s}")
    @Transactional
    public boolean charge(String orderId, BigDecimal amount) {
        Integer charged = jdbc.queryForObject("select count(*) from payments where order_id = ?", Integer.class,
                orderId);
        if (charged != null && charged > 0) {
            return false;
        }
        jdbc.update("insert into payments (order_id, amount) values (?, ?)", orderId, amount);
        return true;
    }
}
