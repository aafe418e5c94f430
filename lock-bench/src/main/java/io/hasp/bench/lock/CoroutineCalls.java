package io.hasp.bench.lock;

import io.hasp.kotlin.HaspLocks;
import io.hasp.lock.HaspLock;
import java.util.concurrent.CompletableFuture;
import kotlin.Unit;
import kotlinx.coroutines.CoroutineScope;
import kotlinx.coroutines.CoroutineScopeKt;
import kotlinx.coroutines.CoroutineStart;
import kotlinx.coroutines.Dispatchers;
import kotlinx.coroutines.future.FutureKt;

/**
 * hasp-kotlin's suspend {@code withLock} called from the Java benchmarks: a coroutine on
 * {@code Dispatchers.Default} per call, as a Kotlin service's request handler would start one.
 */
final class CoroutineCalls {

    private static final CoroutineScope SCOPE = CoroutineScopeKt.CoroutineScope(Dispatchers.getDefault());

    private CoroutineCalls() {
    }

    /** {@code lock.withLock { }} in a new coroutine; the future completes when the lock is given back. */
    static CompletableFuture<Unit> withLock(HaspLock lock) {
        return FutureKt.future(SCOPE, Dispatchers.getDefault(), CoroutineStart.DEFAULT,
                (scope, continuation) -> HaspLocks.withLock(lock, inner -> Unit.INSTANCE, continuation));
    }
}
