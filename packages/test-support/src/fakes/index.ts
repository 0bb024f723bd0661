export { startFakeServer } from './server.js';
export type { FakeBehaviour, FakeRoute, FakeServer, RecordedRequest } from './server.js';
export {
  MISTRAL_CHAT_PATH,
  MISTRAL_OCR_PATH,
  RICH_ANNOTATION,
  defaultOcrPages,
  mistralChatCompletion,
  startFakeMistral,
} from './mistral.js';
export type { FakeMistralOptions, FakeOcrDocument, FakeOcrImage, FakeOcrPage } from './mistral.js';
export { OPENAI_CHAT_PATH, openAiChatCompletion, startFakeOpenAi } from './openai.js';
export type { FakeOpenAiOptions } from './openai.js';
export { tinyPng } from './png.js';
export { CHAT_COMPLETIONS_PATH, echoAnswer, startFakeChatModel } from './chatStream.js';
export type {
  ChatBehaviour,
  ChatFlavour,
  FakeChatModel,
  FakeChatModelOptions,
  StreamRecord,
} from './chatStream.js';
