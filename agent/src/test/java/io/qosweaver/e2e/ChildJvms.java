package io.qosweaver.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Child JVMs of the end-to-end tests: {@code java -Xshare:off -Xmx256m -XX:TieredStopAtLevel=1
 * [options] -javaagent:AGENT=ARGS -cp CP MAIN [args]}, stdout and stderr in files of the test's
 * directory, every child (and its descendants) killed by {@link #stopAll}; plus the HTTP and
 * Prometheus helpers the tests share.
 */
final class ChildJvms {
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final Path dir;
    private final List<Process> started = new ArrayList<>();

    ChildJvms(Path dir) {
        this.dir = dir;
    }

    /** The shaded agent jar under test ({@code -Dqosweaver.agentJar}, else target/). */
    static Path agentJar() {
        Path jar = Path.of(System.getProperty("qosweaver.agentJar", "target/qosweaver-agent.jar")).toAbsolutePath();
        assertThat(jar).as("run 'package' first: the agent jar").exists();
        return jar;
    }

    /** Jetty, the servlet API, SLF4J and the test classes: the test app's class path, nothing of ours. */
    static String appClassPath() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(e -> (e.contains("jetty") || e.contains("servlet") || e.contains("slf4j")
                        || e.endsWith("test-classes")) && !e.contains("tomcat") && !e.contains("undertow"))
                .collect(Collectors.joining(File.pathSeparator));
    }

    /** Undertow core with its XNIO, JBoss and SmallRye libraries, and the test classes: no Jetty, nothing of ours. */
    static String undertowClassPath() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(e -> e.contains("undertow") || e.contains("xnio") || e.contains("jboss") || e.contains("wildfly")
                        || e.contains("smallrye") || e.endsWith("test-classes"))
                .collect(Collectors.joining(File.pathSeparator));
    }

    /** This module's test classes directory, for class paths built of other jars. */
    static String testClasses() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(e -> e.endsWith("test-classes")).findFirst().orElseThrow();
    }

    /** Tomcat (with its own servlet API) and the test classes: no Jetty, nothing of ours. */
    static String tomcatClassPath() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(e -> e.contains("tomcat") || e.endsWith("test-classes"))
                .collect(Collectors.joining(File.pathSeparator));
    }

    record Child(Process process, Path stdout, Path stderr) {
        String err() throws IOException {
            return Files.readString(stderr);
        }

        String out() throws IOException {
            return Files.readString(stdout);
        }

        /** The first group of {@code p} in {@code text} as a port, or -1. */
        int port(Pattern p, String text) {
            Matcher m = p.matcher(text);
            return m.find() ? Integer.parseInt(m.group(1)) : -1;
        }
    }

    Child start(List<String> jvmOptions, String agentArgs, String classPath, String mainClass, String... args)
            throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xshare:off", "-Xmx256m", "-XX:TieredStopAtLevel=1"));
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-javaagent:" + agentJar() + "=" + agentArgs, "-cp", classPath, mainClass));
        cmd.addAll(List.of(args));
        Path out = dir.resolve("stdout-" + started.size());
        Path err = dir.resolve("stderr-" + started.size());
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        started.add(p);
        return new Child(p, out, err);
    }

    /** A child JVM without the agent, which an agent may be loaded into later ({@link #attach}). */
    Child startWithoutAgent(String classPath, String mainClass, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xshare:off", "-Xmx256m", "-XX:+IgnoreUnrecognizedVMOptions", "-XX:+EnableDynamicAgentLoading", "-cp", classPath, mainClass));
        cmd.addAll(List.of(args));
        Path out = dir.resolve("stdout-" + started.size());
        Path err = dir.resolve("stderr-" + started.size());
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        started.add(p);
        return new Child(p, out, err);
    }

    /** Loads the agent into a running child with {@code agentArgs}, as {@code qosweaver trace PID} does. */
    static void attach(Child c, String agentArgs) throws Exception {
        com.sun.tools.attach.VirtualMachine vm = com.sun.tools.attach.VirtualMachine.attach(Long.toString(c.process().pid()));
        try {
            vm.loadAgent(agentJar().toString(), agentArgs);
        } finally {
            vm.detach();
        }
    }

    void stopAll() {
        for (Process p : started) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }

    /** GET, asserting 200. */
    static String get(int port, String path) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(path).isEqualTo(200);
        return r.body();
    }

    /** POST without a body, asserting 200. */
    static String post(int port, String path) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .POST(HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(path).isEqualTo(200);
        return r.body();
    }

    /** An unlabelled sample of Prometheus text, or -1. */
    static long metric(String text, String name) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + " (\\S+)$").matcher(text);
        return m.find() ? (long) Double.parseDouble(m.group(1)) : -1;
    }
}
