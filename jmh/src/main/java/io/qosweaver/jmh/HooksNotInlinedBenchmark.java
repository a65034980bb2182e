package io.qosweaver.jmh;

import org.openjdk.jmh.annotations.Fork;

/**
 * {@link HooksBenchmark} with the hooks never inlined: the worst case of an idle hook (a static
 * call per hook, as before the JIT compiles its caller with them, or where its inlining budget runs
 * out in a large method). Same benchmarks, same baseline; a fork's JVM flags are the only change.
 */
@Fork(jvmArgsAppend = "-XX:CompileCommand=dontinline,io.qosweaver.agent.bootstrap.Hooks::*")
public class HooksNotInlinedBenchmark extends HooksBenchmark {
}
