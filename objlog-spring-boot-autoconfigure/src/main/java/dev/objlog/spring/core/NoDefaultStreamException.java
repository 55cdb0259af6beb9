package dev.objlog.spring.core;

import dev.objlog.InvalidArgumentException;

/**
 * A send without a stream name ({@link ObjlogOperations#sendDefault}, or a message without {@link
 * ObjlogHeaders#STREAM}) on a template that has no default stream. Nothing was sent. Set {@code
 * objlog.template.default-stream}, or name the stream. An {@link InvalidArgumentException}, as a
 * message without a stream was before default streams existed.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class NoDefaultStreamException extends InvalidArgumentException {
  private static final long serialVersionUID = 1L;

  public NoDefaultStreamException() {
    super("this send names no stream (a message names it in the header " + ObjlogHeaders.STREAM
        + ") and the template has no default stream: set objlog.template.default-stream"
        + " (ObjlogTemplate.setDefaultStream), or name the stream");
  }
}
