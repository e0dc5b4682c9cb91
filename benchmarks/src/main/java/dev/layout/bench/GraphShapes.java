package dev.layout.bench;

import java.io.Serializable;

/** The three graphs of issue 10's AutoLink benchmark, as plain classes every codec can handle. */
public final class GraphShapes {
  private GraphShapes() {}

  public static final class TreeNode implements Serializable {
    private static final long serialVersionUID = 1L;
    public int value;
    public TreeNode left;
    public TreeNode right;
  }

  public static final class ListNode implements Serializable {
    private static final long serialVersionUID = 1L;
    public long value;
    public ListNode prev;
    public ListNode next;
  }

  public static final class GridNode implements Serializable {
    private static final long serialVersionUID = 1L;
    public int x;
    public int y;
    public GridNode north;
    public GridNode south;
    public GridNode east;
    public GridNode west;
  }

  public enum Shape {
    TREE,
    LIST,
    GRID
  }

  public static Object build(Shape s, int n) {
    return switch (s) {
      case TREE -> tree(n);
      case LIST -> list(n);
      case GRID -> grid((int) Math.round(Math.sqrt(n)));
    };
  }

  /** A complete binary tree of {@code n} nodes (heap order). */
  public static TreeNode tree(int n) {
    TreeNode[] t = new TreeNode[n];
    for (int i = 0; i < n; i++) {
      t[i] = new TreeNode();
      t[i].value = i;
    }
    for (int i = 0; i < n; i++) {
      if (2 * i + 1 < n) {
        t[i].left = t[2 * i + 1];
      }
      if (2 * i + 2 < n) {
        t[i].right = t[2 * i + 2];
      }
    }
    return t[0];
  }

  /** A doubly-linked cyclic list of {@code n} nodes. */
  public static ListNode list(int n) {
    ListNode[] l = new ListNode[n];
    for (int i = 0; i < n; i++) {
      l[i] = new ListNode();
      l[i].value = i * 31L;
    }
    for (int i = 0; i < n; i++) {
      l[i].next = l[(i + 1) % n];
      l[i].prev = l[(i + n - 1) % n];
    }
    return l[0];
  }

  /** A {@code side x side} grid graph, 4 references per node (null at the border). */
  public static GridNode grid(int side) {
    GridNode[][] g = new GridNode[side][side];
    for (int y = 0; y < side; y++) {
      for (int x = 0; x < side; x++) {
        GridNode v = g[y][x] = new GridNode();
        v.x = x;
        v.y = y;
      }
    }
    for (int y = 0; y < side; y++) {
      for (int x = 0; x < side; x++) {
        GridNode v = g[y][x];
        v.north = y > 0 ? g[y - 1][x] : null;
        v.south = y + 1 < side ? g[y + 1][x] : null;
        v.west = x > 0 ? g[y][x - 1] : null;
        v.east = x + 1 < side ? g[y][x + 1] : null;
      }
    }
    return g[0][0];
  }

  public static Class<?>[] classes() {
    return new Class<?>[] {TreeNode.class, ListNode.class, GridNode.class};
  }
}
