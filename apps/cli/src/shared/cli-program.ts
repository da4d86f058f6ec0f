import { Injectable, OnModuleInit } from '@nestjs/common';
import type { Command } from 'commander';
import { InjectCommander } from 'nest-commander';

/** Names the program in help and usage lines (commander would otherwise say `main`); holds commander's program, whose help the README's table of commands is made from. */
@Injectable()
export class CliProgram implements OnModuleInit {
  static readonly NAME = 'svc-cli';

  constructor(@InjectCommander() readonly program: Command) {}

  onModuleInit(): void {
    this.program
      .name(CliProgram.NAME)
      .description('Operator CLI of the licensing service: works directly on DATABASE_URL, no server needed.');
  }
}
