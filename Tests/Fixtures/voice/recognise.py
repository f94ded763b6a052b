"""Transcribes WAV files (16 kHz, mono, 16-bit) with pocketsphinx's default en-us acoustic model,
language model and dictionary, and prints {file name: transcript} as JSON. The voice tests ask it
what an independent offline recogniser hears in the board's English callouts.

    python recognise.py FILE.wav ...

Before decoding, each utterance gets a third of a second of lead-in and tail, and white noise
40 dB below its own RMS level, seeded from the file name (the same file is heard the same way
every run). Why: synthesised speech is digitally clean, with runs of exact zeros, and pocketsphinx
does badly on it (log energies of silent frames go to the floor and its cepstral mean and noise
estimates follow them; the listening study of issue 24 saw words dropped and inserted on clean
files that it heard with faint noise added). A microphone never hears exact zeros; −40 dB is
quieter than any real room, so this is "near-clean" speech, not a noise test.
"""
import array
import json
import os
import random
import sys
import wave
import zlib

from pocketsphinx import Decoder

RATE = 16000
SNR_DB = 40.0
PAD_SECONDS = 0.33


def near_clean(samples, seed):
    energy = sum(s * s for s in samples) / max(1, len(samples))
    sigma = (energy**0.5) / 10 ** (SNR_DB / 20)
    pad = [0] * int(PAD_SECONDS * RATE)
    rng = random.Random(seed)
    out = array.array("h")
    for s in pad + list(samples) + pad:
        out.append(max(-32768, min(32767, int(round(s + rng.gauss(0.0, sigma))))))
    return out.tobytes()


def main(paths):
    decoder = Decoder(samprate=RATE, loglevel="FATAL")
    heard = {}
    for path in paths:
        with wave.open(path) as w:
            if (w.getframerate(), w.getnchannels(), w.getsampwidth()) != (RATE, 1, 2):
                sys.exit(f"{path}: not 16 kHz mono 16-bit")
            samples = array.array("h", w.readframes(w.getnframes()))
        if sys.byteorder != "little":
            samples.byteswap()
        name = os.path.basename(path)
        decoder.start_utt()
        decoder.process_raw(near_clean(samples, zlib.crc32(name.encode())), full_utt=True)
        decoder.end_utt()
        hyp = decoder.hyp()
        heard[name] = hyp.hypstr if hyp else ""
    json.dump(heard, sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__":
    main(sys.argv[1:])
