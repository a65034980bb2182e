/**
 * The policy file: its YAML read with every value's line kept and validated (task classes, control
 * points, the policy's name and parameters), and edits of its text that keep comments and order.
 * Errors name the file, line and column. What the names and parameters mean is the scheduler's
 * business: the agent hands them over and maps the scheduler's refusals back to lines here.
 */
package io.qosweaver.model.policy;
