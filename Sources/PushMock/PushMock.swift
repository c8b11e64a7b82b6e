public enum PushMock {}
