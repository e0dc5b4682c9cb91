package dev.layout.spark.grid;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.apache.spark.TaskFailedReason;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerExecutorAdded;
import org.apache.spark.scheduler.SparkListenerExecutorRemoved;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;

/**
 * What the driver's scheduler reports during a fault test: executors removed and added, task
 * attempts that failed (with Spark's reason), stages submitted again; and a point in the run to
 * wait for, checked after every task end, so a fault is injected at a deterministic place instead
 * of after a sleep. Register with {@code sc.addSparkListener}, remove when done.
 */
final class SchedulerEvents extends SparkListener {
    private final BooleanSupplier point;
    private final CountDownLatch pointReached = new CountDownLatch(1);
    private final Semaphore executorsAdded = new Semaphore(0);
    private final AtomicInteger executorsRemoved = new AtomicInteger();
    private final AtomicInteger stageReattempts = new AtomicInteger();
    private final List<String> failedTasks = new CopyOnWriteArrayList<>();

    /** Events only, no point to wait for. */
    SchedulerEvents() {
        this(() -> false);
    }

    /** @param point checked on the listener thread after each task end; must be cheap */
    SchedulerEvents(BooleanSupplier point) {
        this.point = point;
    }

    @Override
    public void onTaskEnd(SparkListenerTaskEnd e) {
        if (e.reason() instanceof TaskFailedReason f) {
            failedTasks.add("stage " + e.stageId() + "." + e.stageAttemptId() + ": " + f.toErrorString());
        }
        if (pointReached.getCount() > 0 && point.getAsBoolean()) {
            pointReached.countDown();
        }
    }

    @Override
    public void onExecutorAdded(SparkListenerExecutorAdded e) {
        executorsAdded.release();
    }

    @Override
    public void onExecutorRemoved(SparkListenerExecutorRemoved e) {
        executorsRemoved.incrementAndGet();
    }

    @Override
    public void onStageSubmitted(SparkListenerStageSubmitted e) {
        if (e.stageInfo().attemptNumber() > 0) {
            stageReattempts.incrementAndGet();
        }
    }

    /** Whether the point was reached within {@code timeout}. */
    boolean awaitPoint(Duration timeout) throws InterruptedException {
        return pointReached.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Whether an executor registered (since this listener was added) within {@code timeout}. */
    boolean awaitExecutorAdded(Duration timeout) throws InterruptedException {
        return executorsAdded.tryAcquire(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    int executorsRemoved() {
        return executorsRemoved.get();
    }

    int stageReattempts() {
        return stageReattempts.get();
    }

    /** One line per failed task attempt: stage.attempt and Spark's reason. */
    List<String> failedTasks() {
        return List.copyOf(failedTasks);
    }
}
