package io.distlock.sample;

import io.distlock.sample.gateway.PaymentGateway;
import io.distlock.spring.DistributedLock;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import java.math.BigDecimal;
import java.util.List;

/**
 * Processes each order exactly once, however many requests for it arrive at however many
 * instances.
 * <p>
 * The pattern: check-then-act under a lock that wraps the transaction. "Already processed?", the
 * charge and the status change all run under the order's lock, and the lock is released only
 * after the transaction has committed (distlock's advice runs outside {@code @Transactional}), so
 * the next holder's check sees the committed status. {@link #processWithoutLock} is the same work
 * without the lock, there only for the race demo to show what the lock prevents.
 * <p>
 * What a lock cannot do: undo a charge. Should the commit fail after the provider charged, the
 * order stays unprocessed and the next call charges again. Real payment APIs take an idempotency
 * key (the order id would do) for that; the sample's fake provider deliberately has none.
 */
@Service
public class OrderService {

    private static final BigDecimal PRICE = new BigDecimal("9.99");

    private final JdbcTemplate jdbc;
    private final PaymentService payments;
    private final PaymentGateway gateway;

    OrderService(JdbcTemplate jdbc, PaymentService payments, PaymentGateway gateway) {
        this.jdbc = jdbc;
        this.payments = payments;
        this.gateway = gateway;
    }

    /**
     * Places an order, to be processed later.
     *
     * @param orderId the order
     */
    public void place(String orderId) {
        jdbc.update("insert into orders (id, status, times_processed) values (?, 'NEW', 0)", orderId);
    }

    /**
     * @param orderId the order; one that was never placed is placed and processed
     * @return {@code true} if this call processed it, {@code false} if it was processed before
     */
    @DistributedLock(key = "#orderId", waitTime = "${sample.orders.lock-wait:10s}")
    @Transactional
    public boolean process(String orderId) {
        return processOnce(orderId);
    }

    /**
     * The race demo's unlocked twin of {@link #process}: the same check and work, without the lock.
     * Concurrent calls can all see the order unprocessed and all charge it. Never do this.
     *
     * @param orderId the order
     * @return {@code true} if this call processed it, {@code false} if it saw it processed
     */
    @Transactional
    public boolean processWithoutLock(String orderId) {
        return processOnce(orderId);
    }

    /**
     * @param orderId the order
     * @return how many times it was processed: 0 or 1 through {@link #process}, never more
     */
    public int timesProcessed(String orderId) {
        List<Integer> times = jdbc.queryForList("select times_processed from orders where id = ?", Integer.class,
                orderId);
        return times.isEmpty() ? 0 : times.get(0);
    }

    /**
     * @param orderId the order
     * @return how many times the payment provider charged it, as the provider counts
     */
    public int timesCharged(String orderId) {
        return gateway.chargesOf(orderId);
    }

    // Both public methods call this private one. Had one of them called the other through this, the
    // call would bypass Spring's proxy, and with it the lock and the transaction of the one called.
    private boolean processOnce(String orderId) {
        List<String> status = jdbc.queryForList("select status from orders where id = ?", String.class, orderId);
        if (!status.isEmpty() && status.get(0).equals("PROCESSED")) {
            return false;
        }
        payments.charge(orderId, PRICE);
        if (status.isEmpty()) {
            jdbc.update("insert into orders (id, status, times_processed) values (?, 'PROCESSED', 1)", orderId);
        } else {
            jdbc.update("update orders set status = 'PROCESSED', times_processed = times_processed + 1 where id = ?",
                    orderId);
        }
        return true;
    }
}
