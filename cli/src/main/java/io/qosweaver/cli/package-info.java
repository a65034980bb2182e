/**
 * {@code qosweaver}: the command line (picocli). {@link io.qosweaver.cli.Main} registers the
 * commands, grouped by what they do: {@code run} (an application under the agent),
 * {@code profile} (a profile of one), {@code pointcuts} (control points from a profile),
 * {@code bench} (the experiments and the demo); {@code launch} is the java command with the agent
 * in it that {@code run} and {@code profile} share. Thin: experiments live in the bench module.
 */
package io.qosweaver.cli;
