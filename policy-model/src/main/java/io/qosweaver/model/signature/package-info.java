/**
 * Method signatures as text ({@code RET TYPE.NAME(PARAMS)}, the form profiles store and pointcuts
 * name) and bytecode descriptors decoded to binary names. Depends on the JDK only.
 */
package io.qosweaver.model.signature;
