import PushCore
import Testing

@Suite struct NotificationPreviewTests {
    @Test func aShortAlertShowsWhole() {
        let preview = NotificationPreview(title: "Pedido listo", subtitle: nil, body: "Pasa a recogerlo.", appName: "Café")
        #expect(preview.textLines == ["Pedido listo", "Pasa a recogerlo."])
        #expect(!preview.isCut)
        #expect(!preview.headerIsAppName)
    }

    @Test func withoutATitleTheAppNameLeads() {
        let preview = NotificationPreview(title: "", subtitle: nil, body: "Hola", appName: "Café")
        #expect(preview.headerIsAppName)
        #expect(preview.textLines == ["Café", "Hola"])
    }

    @Test func aLongBodyIsCutAfterFourLinesWithAnEllipsis() {
        let body = (1...30).map { "word\($0)" }.joined(separator: " ")
        let preview = NotificationPreview(title: "T", subtitle: nil, body: body, appName: nil)
        let lines = preview.body?.lines ?? []
        #expect(lines.count == 4)
        #expect(lines.last?.hasSuffix("…") == true)
        #expect(lines.allSatisfy { TextLayout.columns($0) <= NotificationPreview.Screen.iPhone.columns })
        // Every character is either shown or said to be hidden, in order.
        let shown = lines.joined().replacing("…", with: "")
        let hidden = preview.body?.hidden ?? ""
        #expect(preview.isCut)
        #expect((shown + hidden).filter { $0 != " " } == body.filter { $0 != " " })
    }

    @Test func aLongTitleTakesOneLine() {
        let preview = NotificationPreview(title: String(repeating: "Título largo ", count: 8), subtitle: "Sub", body: nil, appName: nil)
        #expect(preview.header?.lines.count == 1)
        #expect(preview.header?.lines[0].hasSuffix("…") == true)
        #expect(preview.subtitle?.lines == ["Sub"])
    }

    @Test func lineBreaksAreKeptAndControlCharactersDropped() {
        let preview = NotificationPreview(title: nil, subtitle: nil, body: "uno\ndos\u{7}\n\ntres\n\n", appName: "App")
        #expect(preview.body?.lines == ["uno", "dos", "", "tres"])
    }

    @Test func wideCharactersCountTwoColumns() {
        let preview = NotificationPreview(title: nil, subtitle: nil, body: String(repeating: "漢", count: 40), appName: "App")
        let lines = preview.body?.lines ?? []
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { TextLayout.columns($0) <= 38 })
    }

    @Test func theCardIsBoxedAndFitsEightyColumns() {
        let preview = NotificationPreview(title: "Hi", subtitle: nil, body: String(repeating: "a b ", count: 60), appName: nil)
        let card = preview.card
        #expect(card.first?.hasPrefix("╭") == true && card.last?.hasPrefix("╰") == true)
        #expect(Set(card.map { TextLayout.columns($0) }).count == 1)
        #expect(card.allSatisfy { TextLayout.columns($0) <= 80 })
    }
}

@Suite struct NotificationPreviewOfPayloadTests {
    private func payload(_ text: String) throws -> JSONValue { try JSONValue.parse(text) }

    @Test func aStringAlertIsTheBody() throws {
        let preview = NotificationPreview(payload: try payload(#"{"aps":{"alert":"Hola"}}"#), appName: "Café")
        #expect(preview?.textLines == ["Café", "Hola"])
        #expect(preview?.headerIsAppName == true)
    }

    @Test func aKeyIsShownAsTheKeyWhenNothingLocalizesIt() throws {
        let preview = NotificationPreview(
            payload: try payload(#"{"aps":{"alert":{"title":"Plain","title-loc-key":"ORDER_TITLE","body":"b"}}}"#), appName: nil)
        #expect(preview?.textLines == ["ORDER_TITLE", "b"])
    }

    @Test func aKeyTheAppHasIsItsTextWithTheArguments() throws {
        let preview = NotificationPreview(
            payload: try payload(#"{"aps":{"alert":{"loc-key":"READY","loc-args":["Ana",3]}}}"#), appName: "Café"
        ) { key, arguments in
            key == "READY" ? "\(arguments[0]), tu pedido (\(arguments[1])) está listo" : nil
        }
        #expect(preview?.textLines == ["Café", "Ana, tu pedido (3) está listo"])
    }

    @Test func noAlertTextNoPreview() throws {
        #expect(NotificationPreview(payload: try payload(#"{"aps":{"content-available":1}}"#), appName: "A") == nil)
        #expect(NotificationPreview(payload: try payload(#"{"aps":{"alert":{}}}"#), appName: "A") == nil)
        #expect(NotificationPreview(payload: try payload(#"{"aps":{"alert":7}}"#), appName: "A") == nil)
    }
}
