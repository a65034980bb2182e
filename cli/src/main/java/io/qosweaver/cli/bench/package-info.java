/** {@code qosweaver bench ...} and {@code qosweaver demo}: the experiments' options and commands, run by the bench module. */
package io.qosweaver.cli.bench;
