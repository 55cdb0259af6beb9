package dev.objlog.spring.test.example;

import dev.objlog.spring.listener.ObjlogListener;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.stereotype.Component;

/** Remembers every order it is given, in the order it was given them. */
@Component
public class OrderListener {
  private final List<String> seen = new CopyOnWriteArrayList<>();

  @ObjlogListener(id = "order-listener", stream = "orders")
  void onOrder(String order) {
    seen.add(order);
  }

  public List<String> seen() {
    return List.copyOf(seen);
  }
}
