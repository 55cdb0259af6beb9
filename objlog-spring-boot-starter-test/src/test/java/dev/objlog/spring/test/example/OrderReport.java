package dev.objlog.spring.test.example;

import org.springframework.stereotype.Service;

/** A component with no objlog part: {@code @ObjlogTest} leaves it out. */
@Service
public class OrderReport {}
