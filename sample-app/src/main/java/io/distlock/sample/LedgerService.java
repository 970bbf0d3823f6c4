package io.distlock.sample;

import io.distlock.spring.DistributedLock;
import io.distlock.spring.LockContext;
import io.distlock.spring.LockType;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import java.math.BigDecimal;
import java.util.Map;

/**
 * Posts to an account's ledger.
 * <p>
 * The pattern: a fenced lock whose token goes to the storage. {@link AccountStore} applies the
 * write only if the token is newer than the last one the account saw, so a poster that stalled
 * past its lease (GC pause, network) and comes back with an old token is refused instead of
 * overwriting the work of the poster that came after it. A lease alone cannot promise that.
 */
@Service
public class LedgerService {

    private final AccountStore accounts;

    LedgerService(AccountStore accounts) {
        this.accounts = accounts;
    }

    /**
     * @param account the account
     * @param amount  what to add
     * @return the token used and the new balance
     * @throws AccountStore.StaleTokenException if a newer lock holder has written since this one got its token
     */
    @DistributedLock(key = "#account", type = LockType.FENCED)
    @Transactional
    public Map<String, Object> post(String account, BigDecimal amount) {
        long token = LockContext.current().fencingToken().orElseThrow();
        accounts.add(account, amount, token);
        return Map.of("account", account, "token", token, "balance", accounts.balance(account));
    }
}
