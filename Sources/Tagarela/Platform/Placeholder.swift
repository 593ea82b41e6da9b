public enum Tagarela {}
