/**
 * Profiles (the binary format the profiling mode writes, and a plain-text one), their reading and
 * merging, the synchronized regions of class files, and the profile-based pointcut generator
 * (QoSWeaver section 3.3, Fig. 3) with its report and the {@code controlPoints:} section it writes.
 */
package io.qosweaver.pointcuts;
