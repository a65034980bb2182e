/** The java command of {@code run} and {@code profile}: finding the agent jar, inserting {@code -javaagent}, running it. */
package io.qosweaver.cli.launch;
