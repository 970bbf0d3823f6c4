package io.distlock.sample;

import io.distlock.core.LockTemplate;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;

import java.time.Duration;
import java.util.Map;

/**
 * Builds the daily report with {@link LockTemplate} rather than the annotation: the lock name is
 * computed in code, and a caller that finds the report being built gets a
 * {@link io.distlock.core.LockAcquisitionException} at once instead of waiting.
 */
@Service
public class ReportService {

    private final LockTemplate locks;
    private final JdbcTemplate jdbc;

    ReportService(LockTemplate locks, JdbcTemplate jdbc) {
        this.locks = locks;
        this.jdbc = jdbc;
    }

    /** @return processed orders and payments so far */
    public Map<String, Object> dailyReport() {
        return locks.execute("report:daily", Duration.ZERO, null, () -> Map.of(
                "ordersProcessed", count("select count(*) from orders where status = 'PROCESSED'"),
                "payments", count("select count(*) from payments")));
    }

    private int count(String sql) {
        Integer count = jdbc.queryForObject(sql, Integer.class);
        return count == null ? 0 : count;
    }
}
