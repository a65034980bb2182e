/** {@code qosweaver pointcuts}: control points generated from profiles (the paper's Fig. 3), as a policy file. */
package io.qosweaver.cli.pointcuts;
