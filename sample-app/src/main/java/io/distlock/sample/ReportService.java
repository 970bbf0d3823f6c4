package io.distlock.sample;

import io.distlock.core.LockTemplate;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;

import java.time.Duration;
import java.util.Map;

/**
 * Builds the daily report.
 * <p>
 * The pattern: {@link LockTemplate} rather than the annotation, for a lock whose name is
 * computed in code, and a zero wait: a caller that finds the report being built gets a
 * {@link io.distlock.core.LockAcquisitionException} (HTTP 409) at once instead of queueing to
 * build it again.
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
