/** Experiment: the river monitor idle and under the flash crowd; whether the failure reproduces. */
package io.qosweaver.bench.flashcrowd;
