package org.portals3j.bench;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.portals3j.transport.internal.Counter;
import org.portals3j.transport.internal.CounterRegistry;

/**
 * One thread counting three counters per operation, as a datagram's path does: the registry's single-writer and
 * shared increments against the {@code AtomicLongArray} the layers counted in before (its baseline, same run).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CounterBenchmark {
    private final AtomicLongArray array = new AtomicLongArray(30);
    private final CounterRegistry registry = new CounterRegistry(30);
    private final Counter a = registry.counter("a", "");
    private final Counter b = registry.counter("b", "");
    private final Counter c = registry.counter("c", "");

    @Benchmark
    public void atomicLongArray() {
        array.getAndIncrement(1);
        array.getAndIncrement(8);
        array.getAndIncrement(0);
    }

    @Benchmark
    public void registrySingleWriter() {
        a.increment();
        b.increment();
        c.increment();
    }

    @Benchmark
    public void registryShared() {
        a.incrementShared();
        b.incrementShared();
        c.incrementShared();
    }
}
