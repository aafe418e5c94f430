package io.hasp.spring;

import io.hasp.annotation.DeferredRelease;
import org.springframework.core.Ordered;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Gives a lock back after the Spring-managed transaction of the current thread has committed or
 * rolled back, when there is one: released before, the lock would let the next holder read the
 * state the transaction has not committed yet. Without a transaction the lock is given back as
 * the locked call ends. Stateless and thread-safe.
 */
public final class TransactionAwareRelease implements DeferredRelease {

    @Override
    public boolean defer(Runnable release) {
        if (!TransactionSynchronizationManager.isSynchronizationActive()) {
            return false;
        }
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCompletion(int status) {
                release.run();
            }

            @Override
            public int getOrder() {
                return Ordered.LOWEST_PRECEDENCE;   // after the application's own synchronizations
            }
        });
        return true;
    }
}
