/**
 * The objlog sample application: a narrated demo of the log API run at startup ({@link
 * dev.objlog.sample.ObjlogDemo}), a REST endpoint appending and reading events ({@link
 * dev.objlog.sample.EventsController}), and the actuator (health, info, objlog).
 */
@NullMarked
package dev.objlog.sample;

import org.jspecify.annotations.NullMarked;
