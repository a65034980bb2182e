/** Everything the agent says: stderr, with the {@code [qosweaver]} prefix the bench parses. A leaf. */
package io.qosweaver.agent.log;
