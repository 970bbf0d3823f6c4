package io.distlock.sample;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

import java.math.BigDecimal;

/**
 * The storage's side of fencing: a write applies only with a token newer than the last one the
 * account saw, checked and written in one statement. The check belongs to the storage, not to the
 * writer: a writer that stalled past its lease cannot know its token is stale, the storage can.
 * Its writes join the caller's transaction.
 */
@Repository
public class AccountStore {

    private final JdbcTemplate jdbc;

    AccountStore(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * @param account the account
     * @param amount  what to add
     * @param token   the writer's fencing token
     * @throws StaleTokenException if the token is not newer than the last one written
     */
    public void add(String account, BigDecimal amount, long token) {
        int updated = jdbc.update("update accounts set balance = balance + ?, last_token = ? where id = ? "
                + "and last_token < ?", amount, token, account, token);
        if (updated == 0) {
            throw new StaleTokenException("Refused a write to account '" + account + "' with fencing token " + token
                    + ": a newer lock holder has written since (or the account does not exist)");
        }
    }

    /**
     * @param account the account
     * @return its balance
     */
    public BigDecimal balance(String account) {
        return jdbc.queryForObject("select balance from accounts where id = ?", BigDecimal.class, account);
    }

    /** A write came with a fencing token older than one the storage has seen. */
    public static class StaleTokenException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        StaleTokenException(String message) {
            super(message);
        }
    }
}
