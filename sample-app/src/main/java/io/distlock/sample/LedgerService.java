package io.distlock.sample;

import io.distlock.spring.DistributedLock;
import io.distlock.spring.LockContext;
import io.distlock.spring.LockType;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import java.math.BigDecimal;
import java.util.Map;

/**
 * Posts to an account's ledger under a fenced lock, and passes the lock's token to the storage:
 * the update only applies if the token is newer than the last one the account saw. A poster
 * that stalled past its lease (GC pause, network) and comes back with an old token is refused
 * instead of overwriting the work of the poster that came after it.
 */
@Service
public class LedgerService {

    private final JdbcTemplate jdbc;

    LedgerService(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * @param account the account
     * @param amount  what to add
     * @return the token used and the new balance
     * @throws StaleTokenException if a newer lock holder has written since this one got its token
     */
    @DistributedLock(key = "#account", type = LockType.FENCED)
    @Transactional
    public Map<String, Object> post(String account, BigDecimal amount) {
        long token = LockContext.current().fencingToken().orElseThrow();
        write(account, amount, token);
        BigDecimal balance = jdbc.queryForObject("select balance from accounts where id = ?", BigDecimal.class, account);
        return Map.of("account", account, "token", token, "balance", balance);
    }

    /**
     * The storage's side of fencing: the write applies only with a token newer than the last.
     *
     * @param account the account
     * @param amount  what to add
     * @param token   the writer's fencing token
     * @throws StaleTokenException if the token is not newer
     */
    @Transactional
    public void write(String account, BigDecimal amount, long token) {
        int updated = jdbc.update("update accounts set balance = balance + ?, last_token = ? where id = ? "
                + "and last_token < ?", amount, token, account, token);
        if (updated == 0) {
            throw new StaleTokenException("Refused a write to account '" + account + "' with fencing token " + token
                    + ": a newer lock holder has written since (or the account does not exist)");
        }
    }

    /** A write came with a fencing token older than one the storage has seen. */
    public static class StaleTokenException extends IllegalStateException {
        StaleTokenException(String message) {
            super(message);
        }
    }
}
