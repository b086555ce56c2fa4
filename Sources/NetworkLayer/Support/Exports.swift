// One `import NetworkLayer` gives users the encoders and `Parameters` too.
@_exported import Encoding
