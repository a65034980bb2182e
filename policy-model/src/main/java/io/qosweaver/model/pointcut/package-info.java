/**
 * The pointcut language: {@code execution}, {@code call}, {@code withincode}, {@code &&},
 * {@code ||}, {@code !}, with AspectJ-like method and type patterns, matched against signatures
 * without loading classes.
 */
package io.qosweaver.model.pointcut;
