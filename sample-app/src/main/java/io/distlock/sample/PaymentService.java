package io.distlock.sample;

import io.distlock.sample.gateway.PaymentGateway;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import java.math.BigDecimal;

/**
 * Charges an order at the payment provider and books the payment.
 * <p>
 * The pattern: a step that must never run twice, with no lock of its own. The provider charges
 * every call, and nothing in this database could undo a second charge, so "at most once" comes
 * from the caller: {@link OrderService#process} holds the order's lock around its check and this
 * call. {@code MANDATORY} says it is a step of a larger unit of work: called on its own, outside a
 * transaction, it fails instead of charging. (A transaction is not a lock, though:
 * {@link OrderService#processWithoutLock} shows what happens when the caller has no lock.)
 */
@Service
public class PaymentService {

    private final JdbcTemplate jdbc;
    private final PaymentGateway gateway;

    PaymentService(JdbcTemplate jdbc, PaymentGateway gateway) {
        this.jdbc = jdbc;
        this.gateway = gateway;
    }

    /**
     * @param orderId the order
     * @param amount  what to charge
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public void charge(String orderId, BigDecimal amount) {
        String chargeId = gateway.charge(orderId, amount);
        jdbc.update("insert into payments (order_id, amount, charge_id) values (?, ?, ?)", orderId, amount, chargeId);
    }
}
