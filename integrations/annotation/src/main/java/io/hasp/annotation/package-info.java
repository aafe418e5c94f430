/**
 * Annotation-driven locking: a method marked {@link io.hasp.annotation.Locked} runs under a hasp
 * lock named from the annotation and the method's {@link io.hasp.annotation.LockKey} arguments,
 * with a bounded number of attempts and a jittered pause between them. {@link
 * io.hasp.annotation.LockedProxies} applies the annotation to an interface's implementation;
 * {@link io.hasp.annotation.LockTemplate#executeLocked} runs any block under a lock with the same
 * options. Framework integrations (the Spring aspect) build on {@link
 * io.hasp.annotation.LockTemplate}.
 */
package io.hasp.annotation;
