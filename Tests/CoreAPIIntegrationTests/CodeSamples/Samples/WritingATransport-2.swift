// WritingATransport.md, sample 2.
import CoreAPI

func makeCallbackSession(engine: any CallbackEngine) -> ApiSession {
    ApiSession(
        hostProvider: DictionaryHostProvider(["api": "https://api.example.com"]),
        transport: CallbackTransport(engine: engine)
    )
}
