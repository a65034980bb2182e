/**
 * Report rendering, one way for every experiment: a {@link io.qosweaver.bench.report.ReportDocument}
 * written as {@code index.html} (plots embedded) and {@code RESULTS.md}, the PNG plots beside them,
 * {@code results.json} ({@link io.qosweaver.bench.report.JsonWriter}), the side-by-side table of
 * river-monitor runs and its plots. It knows no experiment: experiments hand it their results.
 */
package io.qosweaver.bench.report;
