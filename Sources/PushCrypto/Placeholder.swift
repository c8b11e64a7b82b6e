enum PushCryptoPlaceholder {}
