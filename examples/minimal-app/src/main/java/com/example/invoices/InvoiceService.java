package com.example.invoices;

import io.distlock.spring.DistributedLock;
import io.distlock.spring.LockContext;
import org.springframework.stereotype.Service;

import java.time.Duration;

/** Sends each invoice under its own lock, so two instances of the application never send it twice. */
@Service
public class InvoiceService {

    /**
     * @param invoiceId the invoice
     * @return what was done, and under which lock
     * @throws IllegalStateException if Redis does not show the lock held while the method runs
     */
    @DistributedLock(key = "#invoiceId")
    public String send(String invoiceId) {
        LockContext lock = LockContext.current();
        Duration leaseLeft = lock.remainingLease();  // asks Redis
        if (leaseLeft.isZero() || lock.isLost()) {
            throw new IllegalStateException("Redis does not show " + lock.lockNames() + " held");
        }
        return "sent invoice " + invoiceId + " under " + lock.lockNames() + ", lease left " + leaseLeft;
    }
}
