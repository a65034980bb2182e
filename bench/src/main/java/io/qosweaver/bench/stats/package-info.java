/** Numbers: rounding for results files and formatting for reports and progress lines. A leaf. */
package io.qosweaver.bench.stats;
