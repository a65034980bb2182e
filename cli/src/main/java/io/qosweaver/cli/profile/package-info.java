/** {@code qosweaver profile}: a java command under the agent in profiling mode, and a summary of the profile. */
package io.qosweaver.cli.profile;
