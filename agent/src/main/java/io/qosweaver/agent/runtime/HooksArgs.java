package io.qosweaver.agent.runtime;

import io.qosweaver.agent.unit.callprobe.ProfiledPackages;
import java.util.ArrayList;
import java.util.List;

/**
 * The hooks mode's agent arguments, taken out of the raw string before the rest is parsed:
 * {@code hooks=execution|all,hooksInclude=PKG[+PKG...]} weaves an idle hook at every execution
 * (and for {@code all} every call) join point of the packages; {@code recordClassBytes=true}
 * records the JVM's class bytes around the weaving (the byte-identity check after unweave). With
 * either, {@code policy=} becomes optional.
 *
 * @param mode null (no hooks), {@code execution} or {@code all}
 * @param include the hooked packages (empty without hooks)
 * @param recordClassBytes whether the class-byte taps are installed
 */
public record HooksArgs(String mode, List<String> include, boolean recordClassBytes) {
    public static final HooksArgs NONE = new HooksArgs(null, List.of(), false);
    static final List<String> KEYS = List.of("hooks", "hooksInclude", "recordClassBytes");

    public HooksArgs {
        include = List.copyOf(include);
    }

    public boolean any() {
        return mode != null || recordClassBytes;
    }

    public boolean calls() {
        return "all".equals(mode);
    }

    /** The hooks arguments of {@code raw} and the arguments left for the rest of the agent. */
    public record Split(HooksArgs hooks, String rest) {}

    public static Split split(String raw) {
        if (raw == null || raw.isBlank()) {
            return new Split(NONE, raw == null ? "" : raw);
        }
        String mode = null;
        String include = null;
        String record = null;
        StringBuilder rest = new StringBuilder();
        for (String part : raw.split(",")) {
            int eq = part.indexOf('=');
            String k = eq < 0 ? part.strip() : part.substring(0, eq).strip();
            String v = eq < 0 ? "" : part.substring(eq + 1).strip();
            switch (k) {
                case "hooks" -> mode = v;
                case "hooksInclude" -> include = v;
                case "recordClassBytes" -> record = v;
                default -> rest.append(rest.length() == 0 ? "" : ",").append(part);
            }
        }
        if (mode == null && include == null && record == null) {
            return new Split(NONE, raw);
        }
        if (mode != null && !mode.equals("execution") && !mode.equals("all")) {
            throw new IllegalArgumentException("agent argument hooks=" + mode + " must be execution or all");
        }
        if ((mode == null) != (include == null)) {
            throw new IllegalArgumentException(mode == null ? "agent argument hooksInclude= needs hooks=execution|all"
                    : "agent argument hooks=" + mode + " needs hooksInclude=PKG[+PKG...], the packages to hook");
        }
        List<String> packages = new ArrayList<>();
        if (include != null) {
            for (String pkg : include.split("[+;]")) {
                pkg = pkg.strip();
                if (!pkg.matches("[A-Za-z_$][\\w$]*(\\.[A-Za-z_$][\\w$]*)*")) {
                    throw new IllegalArgumentException("hooksInclude=" + include + ": '" + pkg + "' is not a package name"
                            + " (packages are separated by '+')");
                }
                ProfiledPackages.check(pkg, include);
                packages.add(pkg);
            }
        }
        boolean rec = false;
        if (record != null) {
            if (!record.equals("true") && !record.equals("false")) {
                throw new IllegalArgumentException("agent argument recordClassBytes=" + record + " must be true or false");
            }
            rec = Boolean.parseBoolean(record);
        }
        return new Split(new HooksArgs(mode, packages, rec), rest.toString());
    }
}
