package io.hasp.internal.lock;

import io.hasp.ReplicaAcksException;
import io.hasp.internal.ParkingFuture;

/**
 * The result of an {@link Acquisition}, the future its caller gets. However it completes, the acquisition hears of it
 * twice: right before ({@link Acquisition#end}), so that what is still on its way is accounted for before any caller
 * sees the result, and right after ({@link Acquisition#finished}), to release what it held, with no dependent stage.
 * "Not acquired" after a last grant too few replicas confirmed says so instead.
 */
final class AcquisitionResult extends ParkingFuture<Boolean> {

    private final Acquisition acquisition;

    AcquisitionResult(Acquisition acquisition) {
        this.acquisition = acquisition;
    }

    /** Completes it with the lock the acquisition's answer gave; false when it ended otherwise first. */
    boolean grant() {
        return acquisition.end(true) && super.complete(true);
    }

    @Override
    public boolean complete(Boolean acquired) {
        ReplicaAcksException last = Boolean.FALSE.equals(acquired) ? acquisition.unconfirmed : null;
        return last != null ? completeExceptionally(last) : acquisition.end(false) && super.complete(acquired);
    }

    @Override
    public boolean completeExceptionally(Throwable failure) {
        return acquisition.end(false) && super.completeExceptionally(failure);
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        return acquisition.end(false) ? super.cancel(mayInterruptIfRunning) : isCancelled();
    }

    @Override
    protected void onDone() {
        acquisition.finished();
    }
}
