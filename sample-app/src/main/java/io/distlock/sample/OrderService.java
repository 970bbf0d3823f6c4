package io.distlock.sample;

import io.distlock.spring.DistributedLock;
import io.distlock.spring.LockContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import java.math.BigDecimal;
import java.util.List;

/**
 * Processes each order exactly once. "Already processed?" and the processing run under the
 * order's lock, and the lock is held until the transaction has committed, so no concurrent
 * request (on this instance or another) can see the order unprocessed and process it again.
 */
@Service
public class OrderService {

    private static final Logger LOG = LoggerFactory.getLogger(OrderService.class);

    private final JdbcTemplate jdbc;
    private final PaymentService payments;

    OrderService(JdbcTemplate jdbc, PaymentService payments) {
        this.jdbc = jdbc;
        this.payments = payments;
    }

    /**
     * @param orderId the order
     * @return {@code true} if this call processed it, {@code false} if it was processed before
     */
    @DistributedLock(key = "#orderId")
    @Transactional
    public boolean process(String orderId) {
        List<String> status = jdbc.queryForList("select status from orders where id = ?", String.class, orderId);
        if (!status.isEmpty() && status.get(0).equals("PROCESSED")) {
            return false;
        }
        LOG.debug("Processing {} under {}", orderId, LockContext.current());
        simulateWork();
        if (status.isEmpty()) {
            jdbc.update("insert into orders (id, status, times_processed) values (?, 'PROCESSED', 1)", orderId);
        } else {
            jdbc.update("update orders set status = 'PROCESSED', times_processed = times_processed + 1 where id = ?",
                    orderId);
        }
        payments.charge(orderId, new BigDecimal("9.99"));  // joins this transaction
        return true;
    }

    /**
     * @param orderId the order
     * @return how many times it was processed: 0 or 1, never more
     */
    public int timesProcessed(String orderId) {
        List<Integer> times = jdbc.queryForList("select times_processed from orders where id = ?", Integer.class,
                orderId);
        return times.isEmpty() ? 0 : times.get(0);
    }

    private static void simulateWork() {
        try {
            Thread.sleep(5);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
