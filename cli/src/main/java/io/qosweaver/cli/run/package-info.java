/** {@code qosweaver run}: an unmodified java command under the agent and a policy file. */
package io.qosweaver.cli.run;
