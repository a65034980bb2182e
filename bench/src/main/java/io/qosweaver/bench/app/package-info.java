/**
 * The application process under test: starting the unmodified river monitor (with the agent, a peer
 * or neither), driving it through the flash crowds phases, scraping its metrics and timeline,
 * sampling its threads' CPU by group ({@link io.qosweaver.bench.app.ThreadCpu}),
 * parsing its collections, and turning a run into a {@link io.qosweaver.bench.app.ScenarioResult};
 * with the {@link io.qosweaver.bench.app.Progress} lines a long run prints. Shared by every
 * experiment.
 */
package io.qosweaver.bench.app;
