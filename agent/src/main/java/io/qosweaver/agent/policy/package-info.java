/**
 * The policy file: its YAML read with every value's line kept, validated, and turned into the
 * scheduler's configuration; errors name the file, line and column.
 */
package io.qosweaver.agent.policy;
