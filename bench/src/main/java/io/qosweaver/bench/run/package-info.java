/**
 * How an experiment run is set up: the project layout and its jars, the versions compared (the
 * papers and todays tools), private copies of the jars a run uses, the flash crowds parameters,
 * the machines description.
 */
package io.qosweaver.bench.run;
