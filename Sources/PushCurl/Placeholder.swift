enum PushCurlPlaceholder {}
