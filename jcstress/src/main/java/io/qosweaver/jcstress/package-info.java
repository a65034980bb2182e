/**
 * jcstress tests of the scheduler's mechanism: the run/wait-queue state machine under concurrent
 * admit, release, setLimit and exit, and the flag/park handshake (a release must always wake a
 * parked owner, also after a release and a new demotion in a row, and an interrupt must always end
 * a wait). {@link io.qosweaver.jcstress.Machines} builds the scheduler each test runs on.
 */
package io.qosweaver.jcstress;
