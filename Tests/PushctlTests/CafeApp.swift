import Foundation

extension TemporaryDirectory {
    /// An app's source folder, `Cafe`: a Live Activity (`OrderAttributes`, whose ContentState needs
    /// `status` and a `readyAt` Date), Spanish (the development region) and English strings for
    /// `ORDER_READY`, and the display name "Café Sol". Its path.
    func makeCafeApp() throws -> String {
        for folder in ["Cafe/es.lproj", "Cafe/en.lproj"] {
            try FileManager.default.createDirectory(atPath: path(folder), withIntermediateDirectories: true)
        }
        try write(
            "Cafe/Info.plist",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>CFBundleDevelopmentRegion</key><string>es</string>
            <key>CFBundleDisplayName</key><string>Café Sol</string>
            </dict></plist>
            """)
        try write("Cafe/es.lproj/Localizable.strings", #""ORDER_READY" = "%@, tu pedido está listo";"# + "\n")
        try write("Cafe/en.lproj/Localizable.strings", #""ORDER_READY" = "%@, your order is ready";"# + "\n")
        try write(
            "Cafe/OrderActivity.swift",
            """
            import ActivityKit
            struct OrderAttributes: ActivityAttributes {
                struct ContentState: Codable, Hashable {
                    var status: String
                    var readyAt: Date
                }
                var orderNumber: Int
            }
            """)
        return path("Cafe")
    }
}
